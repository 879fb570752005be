/**
 * Binds use cases that take a module's context first to one context, so the module's service
 * object keeps the method names its callers and tests know.
 */
export function useCasesOf<C>(ctx: C) {
  return <A extends unknown[], R>(useCase: (ctx: C, ...args: A) => R) =>
    (...args: A): R =>
      useCase(ctx, ...args);
}
