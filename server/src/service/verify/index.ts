/** Recorded responses checked against an adapter's error contract (issue 16). */
export { isResponseFile, RESPONSE_FILE_GLOBS, verifyText } from './verify';
