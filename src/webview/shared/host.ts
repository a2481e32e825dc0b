/** The webview side of the host bridge, shared by every webview bundle: typed post, saved state, `$` lookup. */
declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };

/** `acquireVsCodeApi` may be called once per page; every caller gets this one instance. */
const api = acquireVsCodeApi();

export function bridge<Out>() {
  return {
    post: (m: Out) => api.postMessage(m),
    getState: <S>() => api.getState() as S | undefined,
    setState: (s: unknown) => api.setState(s),
  };
}

export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
