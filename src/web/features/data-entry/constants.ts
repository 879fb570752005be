/**
 * Where eSign sends a generated document. One constant, so a system setting can replace it later
 * (the issue: "Its address is a system setting, with a sensible default").
 */
export const DEFAULT_ESIGN_URL = 'https://www.docuseal.com/';
