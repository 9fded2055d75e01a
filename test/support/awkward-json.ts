/** Values JSON.stringify treats specially, for property tests of code that must agree with it. */
import fc from 'fast-check'

/**
 * undefined, a function, a symbol, a Date, a toJSON, a null-prototype object, a class instance, a
 * boxed number, NaN, -0 and an array with a hole.
 *
 * @example
 * fc.oneof(fc.jsonValue(), awkwardJsonValue)
 */
export const awkwardJsonValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(() => 1),
  fc.constant(Symbol('s')),
  fc.constant(new Date(Date.UTC(2026, 0, 2))),
  fc.constant({ toJSON: () => 'custom' }),
  fc.constant(Object.assign(Object.create(null) as object, { bare: true })),
  fc.constant(
    new (class Point {
      x = 1
    })(),
  ),
  fc.constant(new Number(1)),
  fc.constant(Number.NaN),
  fc.constant(-0),
  // biome-ignore lint/suspicious/noSparseArray: a hole is one of the inputs under test
  fc.constant([1, , 3]),
)
