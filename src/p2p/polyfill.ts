// libp2p 3 calls Promise.withResolvers, which Node 20 lacks (it arrived in Node 22). Any module
// that imports libp2p must import this file first; ESM evaluates imports in order, so the
// polyfill is in place before libp2p's modules run.
const P = Promise as unknown as { withResolvers?: unknown };
if (typeof P.withResolvers !== 'function') {
  P.withResolvers = function withResolvers<T>(this: PromiseConstructor) {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new this<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

export {};
