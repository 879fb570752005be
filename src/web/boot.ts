import './index.css';

/*
 * The page's first script. A page drawn ahead of time (the landing page, the API reference, a
 * signed-in person's empty frame) is shown as it arrived before the app's code runs: evaluating
 * React and taking the page over holds a phone's main thread for a while, and the browser would
 * otherwise often run it before its first paint. Such a page preloads React and the app's code (its
 * head names both), and React, a file of its own, is started in a task of its own before the app's
 * code: evaluated together they were one long task on a phone (Lighthouse's mobile run counts every
 * task over 50 ms against the page). An empty page has nothing to show meanwhile and preloads
 * neither, so it asks for the app at once, which fetches both together.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const startDrawnPage = async () => {
  await import('react-dom/client');
  await nextTask();
  await import('./main');
};
if (document.getElementById('root')?.hasChildNodes()) requestAnimationFrame(() => setTimeout(() => void startDrawnPage(), 0));
else void import('./main');
