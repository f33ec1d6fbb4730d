/** `verify`: recorded responses (JSON, JSON Lines) against the adapters' contract. */
export { runVerify } from './command';
