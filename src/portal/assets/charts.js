// Draws the charts page from /charts/data (URL in #charts[data-src]). Loaded as a file so the
// Content-Security-Policy can forbid inline scripts. Amounts arrive as decimal strings; they
// become numbers here only to be plotted.
(function () {
  'use strict';
  var root = document.getElementById('charts');
  if (!root || typeof Chart === 'undefined') return;
  var palette = ['#1f4fd1', '#d9480f', '#2b8a3e', '#862e9c', '#c92a2a', '#0b7285', '#5c940d', '#e67700'];
  var status = document.getElementById('charts-status');
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  Chart.defaults.color = '#5d6878';
  Chart.defaults.animation = false;

  function num(s) { return Number(s); }
  function bars(canvas, months, series) {
    return new Chart(canvas, {
      type: 'bar',
      data: { labels: months, datasets: series.map(function (s, i) { return { label: s.coin, data: s.values.map(num), backgroundColor: palette[i % palette.length] }; }) },
      options: { responsive: true, plugins: { legend: { position: 'bottom' } }, scales: { y: { grid: { color: '#eceff3' } }, x: { grid: { display: false } } } },
    });
  }

  fetch(root.getAttribute('data-src'), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then(function (r) { return r.json().then(function (body) { if (!r.ok) throw new Error(body.error || r.statusText); return body; }); })
    .then(function (data) {
      var grid = document.getElementById('balance-charts');
      if (data.balances.length === 0) grid.textContent = 'No balances in this period.';
      data.balances.forEach(function (s, i) {
        var fig = document.createElement('figure');
        var cap = document.createElement('figcaption');
        cap.textContent = s.coin;
        var canvas = document.createElement('canvas');
        canvas.height = 170;
        fig.appendChild(cap); fig.appendChild(canvas); grid.appendChild(fig);
        new Chart(canvas, {
          type: 'line',
          data: { labels: data.months, datasets: [{ label: s.coin, data: s.values.map(num), borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length] + '22', fill: true, tension: 0.2, pointRadius: 2 }] },
          options: { responsive: true, plugins: { legend: { display: false } }, scales: { y: { grid: { color: '#eceff3' } }, x: { grid: { display: false } } } },
        });
      });
      bars(document.getElementById('pnl-chart'), data.months, data.realizedPnl);
      bars(document.getElementById('fees-chart'), data.months, data.fees);
      status.textContent = 'Months in the period\u2019s time zone. Top coins by activity.';
      root.setAttribute('data-ready', 'true');
    })
    .catch(function (err) {
      status.textContent = 'Could not load the chart data: ' + err.message;
      status.className = 'alert alert-error';
      root.setAttribute('data-ready', 'error');
    });
})();
