/** The app's version, set at build time (package.json version, plus IRIS_BUILD_ID when given). */
declare const __APP_VERSION__: string;
