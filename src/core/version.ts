/** The package version, sent in the User-Agent. A test keeps it equal to package.json's. */
export const VERSION = "0.1.0";

/** The SDK's own User-Agent product token. */
export const SDK_USER_AGENT = `rebuild-dashboard-kit/${VERSION}`;
