// Every load is bounded in time: a promise that has not settled after `seconds` rejects.
export function boundedWait(promise, seconds, what) {
  let timer;
  const timeout = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${Math.round(seconds)} s`)), seconds * 1000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
