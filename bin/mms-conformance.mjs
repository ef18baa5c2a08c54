#!/usr/bin/env node
// The kit's CLI: TypeScript sources run through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
