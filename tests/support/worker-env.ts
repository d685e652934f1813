import { inject } from 'vitest';

// Test workers talk to the same local AWS servers and resource names as the running service.
Object.assign(process.env, inject('serviceEnv'));
