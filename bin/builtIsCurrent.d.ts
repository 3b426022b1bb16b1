/** True when `root`/dist was built after the last change under `root`/src (see builtIsCurrent.js). */
export function builtIsCurrent(root: string): boolean;
