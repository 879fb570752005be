import './index.css';

/*
 * The page's first script. A page drawn ahead of time (the landing page, the API reference, a
 * signed-in person's empty frame) is shown as it arrived before the app's code runs: evaluating
 * React and taking the page over holds a phone's main thread for a while, and the browser would
 * otherwise often run it before its first paint. An empty page starts the app at once.
 */
const startApp = () => void import('./main');
if (document.getElementById('root')?.hasChildNodes()) requestAnimationFrame(() => setTimeout(startApp, 0));
else startApp();
