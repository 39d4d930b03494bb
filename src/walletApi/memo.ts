/**
 * `make` with its results kept by key, for what a process derives again and again from a few
 * strings (a secret's HMAC pads, a wallet URL's call URLs). Past `max` keys every kept result
 * is dropped: a test may use many secrets, a server one or two.
 */
export function memoByKey<V>(make: (key: string) => V, max = 64): (key: string) => V {
  const kept = new Map<string, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      if (kept.size >= max) kept.clear();
      value = make(key);
      kept.set(key, value);
    }
    return value;
  };
}
