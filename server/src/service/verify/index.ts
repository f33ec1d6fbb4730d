/** Recorded responses checked against an adapter's error contract (`verify`; docs/cli.md, "Verifying recorded responses"). */
export { isResponseFile, RESPONSE_FILE_GLOBS, verifyText } from './verify';
