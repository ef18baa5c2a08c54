/** The files of a run's certification bundle beside its reports (cli/manifest.ts writes and checks them). */
export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.json.sig';
