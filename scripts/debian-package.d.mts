export function ensureDebianPackage(program: {
  packageName: string;
  paths: (string | undefined)[];
  hint: string;
}): string;
