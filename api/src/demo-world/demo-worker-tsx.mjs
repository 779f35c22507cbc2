// The demo world thread when the API runs as TypeScript (npm run dev, tests): a worker thread does not inherit the
// process's TypeScript loader, so this registers tsx in the thread, then loads demo-worker.ts. The compiled API starts
// demo-worker.js directly.
import { register } from 'tsx/esm/api';

register();
await import('./demo-worker.ts');
