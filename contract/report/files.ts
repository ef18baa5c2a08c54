/** The file names of a conformance report's formats under the output folder (contract/report/write.ts writes them). */
export const REPORT_FILES = { json: 'conformance.json', html: 'conformance.html', junit: 'conformance-junit.xml', markdown: 'conformance.md', har: 'exchanges.har' } as const;
