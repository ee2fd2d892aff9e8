// A demo bundle is for showing: a few hundred episodes at most keep the file small enough to
// mail. The route and the CLI refuse more; the run page's button says so before it is pressed.
export const MAX_BUNDLE_EPISODES = 200;
