import './index.css';

/*
 * The page's first script. A page drawn ahead of time (the landing page, the API reference, a
 * signed-in person's empty frame) is shown as it arrived before the app's code runs: evaluating
 * React and taking the page over holds a phone's main thread for a while, and the browser would
 * otherwise often run it before its first paint. An empty page starts the app at once.
 */
/*
 * React and its DOM renderer are a file of their own, started in a task of their own before the
 * app's code: evaluated together they were one long task on a phone (Lighthouse's mobile run counts
 * every task over 50 ms against the page); apart, each is a shorter one and the browser can paint
 * or answer a tap between them.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const startApp = async () => {
  await import('react-dom/client');
  await nextTask();
  await import('./main');
};
if (document.getElementById('root')?.hasChildNodes()) requestAnimationFrame(() => setTimeout(() => void startApp(), 0));
else void startApp();
