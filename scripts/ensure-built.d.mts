export function ensureBuilt(root: string, bundle: string, options?: { stdio?: 'inherit' | 'pipe' }): void;
