// The host app's Next.js configuration: the defaults.
export default {}
