import { createElement, lazy, type ComponentType } from 'react';

/**
 * A component whose code loads on demand, but which can be loaded ahead of a render that must not
 * wait: a page drawn ahead of time hydrates from code that is already there, and the build draws
 * it with every part in place. (React.lazy suspends on its first render even when the module has
 * loaded.) Once `preload` has resolved, the component renders directly, with no suspension;
 * before, it suspends like React.lazy, and a Suspense boundary above it keeps what the server
 * drew until the code arrives.
 */
export function preloadableLazy<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  const remember = () =>
    load().then((component) => {
      loaded = component;
      return component;
    });
  const Lazy = lazy(() => remember().then((component) => ({ default: component })));
  function Preloadable(props: P) {
    return loaded ? createElement(loaded, props) : createElement(Lazy, props);
  }
  return Object.assign(Preloadable, { preload: () => remember().then(() => undefined) });
}
