// Node runs WebAssembly, but @types/node 20 declares none of it and the server's code does not load
// the DOM's typings: the one call the embedded database's start makes (pglite-remote.ts). The
// Module type itself is declared by esbuild's typings, which the build scripts load.
declare namespace WebAssembly {
  function compile(bytes: Uint8Array): Promise<Module>;
}
