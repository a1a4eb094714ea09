/**
 * The abuse suite (issue 8): each class of attack a public gateway meets, several variants each,
 * against the real gateway over HTTP and the sample upstream's request log. One section per class
 * family, each in its own module under test/abuse/.
 */
import '../abuse/query-limits.js';
import '../abuse/tenants-and-quota.js';
import '../abuse/edges.js';
