// The environment every test process starts from, set before vitest starts its
// workers (both configs import this first).
//
// Node 20 reads and parses the CA bundle NODE_EXTRA_CA_CERTS names at every
// start, about 45 ms of CPU, before any JavaScript runs. Every test file's fork,
// and every child process a test starts without a sandbox's own environment,
// would pay it, and no test speaks TLS. Measured on the unit suite: 84 CPU-s
// with it set, 67 without.
delete process.env.NODE_EXTRA_CA_CERTS;
