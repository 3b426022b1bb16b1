/**
 * ISO 4217 currency codes: the active ones plus the legacy codes the ECB's history file still
 * carries (CYP, EEK, LTL, LVL, MTL, ROL, SIT, SKK, TRL, ...). A column or Net Worth Currency
 * outside this list is refused as an unknown currency.
 *
 * @example
 * isCurrencyCode('GBP'); // true
 */
export function isCurrencyCode(code: string): boolean {
  return codes.has(code);
}

/**
 * Whether `text` names a currency to value the ledger in (--fiat, the portal's Fiat field): an
 * ISO 4217 code in any case. "XYZ" or "BTC" wrote a whole report or gains run of empty values
 * whose fix (`import fx`) could never work: the ECB publishes no such rate.
 *
 * @example
 * isFiatCode('gbp'); // true
 * isFiatCode('XYZ'); // false
 */
export function isFiatCode(text: string): boolean {
  return codes.has(text.toUpperCase());
}

const codes = new Set(`
AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD
CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD
GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT
LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR
NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP
STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF
XPF YER ZAR ZMW ZWL
CYP EEK LTL LVL MTL ROL SIT SKK TRL BYR HRK ISK
`.trim().split(/\s+/));
