// The browser tests' helpers, in one place: the serving process under test (server.ts), what a person
// does in the app and what its DB holds (app.ts), the shell around a lane (shell.ts), the share sheet (share.ts),
// the system clipboard the workers share (clipboard.ts).
export * from './server';
export * from './app';
export * from './shell';
export * from './share';
export * from './clipboard';
