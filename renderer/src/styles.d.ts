// Stylesheets are imported for their side effect (Vite adds them to the page). TypeScript 6 checks
// that a side-effect import resolves, so it is told what a .css module is.
declare module '*.css';
