import {
  compileQuery,
  isCompiledQuery
} from "./execution.js";
import {
  fieldExpansionEnricher,
  isLeafField
} from "./resolve-info.js";
export {
  compileQuery,
  fieldExpansionEnricher,
  isCompiledQuery,
  isLeafField
};
//# sourceMappingURL=index.mjs.map