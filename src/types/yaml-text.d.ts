// A .yaml file imported by the code is its text (esbuild's text loader, scripts/build.mjs).
declare module '*.yaml' {
  const text: string;
  export default text;
}
