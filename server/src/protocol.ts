// Custom requests between client and server (conventions C10). Declared once, namespaced, typed.
export {};
