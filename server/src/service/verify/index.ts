/** Recorded responses checked against an adapter's error contract (`verify`; docs/cli.md, "Verifying recorded responses"). */
export { isResponseFile, plainlyClean, RESPONSE_FILE_GLOBS, verifyText } from './verify';
