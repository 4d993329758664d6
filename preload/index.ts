// The preload bridge. The typed window.callout API is built from the contract in the desktop-shell issue.
export {};
