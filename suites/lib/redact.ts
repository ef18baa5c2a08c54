/** The suite's redaction is the kit's one redaction (contract/redact.ts): re-exported where the suite has always found it. */
export * from '../../contract/redact.ts';
