// Exports of history and exchanges: HAR 1.2, cURL, CSV.
export { toHar, harEntry, harRequest, harTimings, type Har, type HarCreator, type HarEntry } from './har';
export { toCurl, type CurlOptions } from './curl';
export { toCsv, localTime, BOM, CSV_COLUMNS, type CsvOptions } from './csv';
