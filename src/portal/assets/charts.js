// Draws the charts page from /charts/data (URL in #charts[data-src]). Loaded as a file so the
// Content-Security-Policy can forbid inline scripts. Every value arrives in one fiat currency
// (data.fiat) as a decimal string; it becomes a number here only to be plotted, and each chart
// has one y axis in that currency.
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
  function axis(fiat, stacked) {
    var whole = new Intl.NumberFormat(undefined, { style: 'currency', currency: fiat, maximumFractionDigits: 0 });
    var cents = new Intl.NumberFormat(undefined, { style: 'currency', currency: fiat });
    return {
      y: { stacked: stacked, beginAtZero: true, title: { display: true, text: fiat }, grid: { color: '#eceff3' }, ticks: { maxTicksLimit: 8, callback: function (v) { return (Math.abs(v) >= 10 ? whole : cents).format(v); } } },
      x: { stacked: stacked, grid: { display: false } },
    };
  }
  function tooltip(fiat) {
    var money = new Intl.NumberFormat(undefined, { style: 'currency', currency: fiat });
    return { callbacks: { label: function (c) { return c.dataset.label + ': ' + money.format(c.parsed.y); } } };
  }
  function bars(canvas, data, series) {
    return new Chart(canvas, {
      type: 'bar',
      data: { labels: data.months, datasets: series.map(function (s, i) { return { label: s.coin, data: s.values.map(num), backgroundColor: palette[i % palette.length] }; }) },
      options: { responsive: true, maintainAspectRatio: false, plugins: { legend: { position: 'bottom' }, tooltip: tooltip(data.fiat) }, scales: axis(data.fiat, true) },
    });
  }

  fetch(root.getAttribute('data-src'), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then(function (r) { return r.json().then(function (body) { if (!r.ok) throw new Error(body.error || r.statusText); return body; }); })
    .then(function (data) {
      // Holdings: one line per coin, all on the same fiat axis, stacked into the account's total.
      new Chart(document.getElementById('balance-chart'), {
        type: 'line',
        data: { labels: data.months, datasets: data.balances.map(function (s, i) { return { label: s.coin, data: s.values.map(num), borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length] + '55', fill: true, tension: 0.2, pointRadius: 2 }; }) },
        options: { responsive: true, maintainAspectRatio: false, plugins: { legend: { position: 'bottom' }, tooltip: tooltip(data.fiat) }, scales: axis(data.fiat, true) },
      });
      bars(document.getElementById('pnl-chart'), data, data.realizedPnl);
      bars(document.getElementById('fees-chart'), data, data.fees);
      var note = 'Months in the period\u2019s time zone, up to now. Values in ' + data.fiat + '. Largest holdings and most active coins.';
      if (data.unpricedCoins.length > 0) note += ' No ' + data.fiat + ' price for ' + data.unpricedCoins.join(', ') + ': left out of the holdings.';
      if (data.balances.length === 0) note += ' No priced holdings in this period.';
      status.textContent = note;
      root.setAttribute('data-ready', 'true');
    })
    .catch(function (err) {
      status.textContent = 'Could not load the chart data: ' + err.message;
      status.className = 'alert alert-error';
      root.setAttribute('data-ready', 'error');
    });
})();
