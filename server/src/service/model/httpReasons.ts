/** HTTP reason phrases (RFC 9110) for the statuses an adapter maps. */
export const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  511: 'Network Authentication Required',
};

/** The code the spec's default table gives a status: the s6.2 algorithm with the 409/429 variant first (digest s5). */
export function defaultCodeFor(status: number): string {
  if (status === 409) return 'CONFLICT_ALREADY_EXISTS';
  if (status === 429) return 'RATE_LIMIT_EXCEEDED';
  if (status === 400 || status === 422) return 'VALIDATION_INVALID_TYPE';
  if (status === 401 || status === 403) return 'PERMISSION_DENIED';
  if (status === 404) return 'NOT_FOUND_RESOURCE';
  if (status >= 500) return 'INTERNAL_ERROR';
  return 'VALIDATION_INVALID_TYPE';
}
