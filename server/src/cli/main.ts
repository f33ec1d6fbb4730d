// The command line (design s5): a thin adapter over the service.
export {};
