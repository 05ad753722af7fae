// Vitest runs outside React's server runtime; "server-only" would throw there, so it is aliased here.
export {};
