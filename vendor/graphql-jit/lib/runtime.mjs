function resolvePromise(ctx, promise, onSuccess, onError) {
  ++ctx.promiseCounter;
  promise.then(
    (result) => {
      onSuccess(result);
      --ctx.promiseCounter;
      if (ctx.promiseCounter === 0) ctx.resolve(ctx);
    },
    (err) => {
      onError(err);
      --ctx.promiseCounter;
      if (ctx.promiseCounter === 0) ctx.resolve(ctx);
    }
  );
}
const jitRuntime = {
  isPromise(value) {
    return value != null && typeof value === "object" && typeof value.then === "function";
  },
  checkNonNullLeaf(ctx, value, dest, nullMsg, locs, path, capStack, serialize, errHandler, ...parentIndexes) {
    const GQLError = ctx.GraphQLError;
    if (value == null) {
      dest.push(new GQLError(nullMsg, locs, path, void 0, capStack));
      return null;
    }
    if (value instanceof Error) {
      dest.push(
        new GQLError(value.message ?? value, locs, path, value, capStack)
      );
      return null;
    }
    return serialize(ctx, value, errHandler, ...parentIndexes);
  },
  checkNullableLeaf(ctx, value, dest, locs, path, capStack, serialize, errHandler, ...parentIndexes) {
    if (value == null) return null;
    const GQLError = ctx.GraphQLError;
    if (value instanceof Error) {
      dest.push(
        new GQLError(value.message ?? value, locs, path, value, capStack)
      );
      return null;
    }
    return serialize(ctx, value, errHandler, ...parentIndexes);
  },
  callResolver(ctx, call, onSuccess, onError) {
    let value;
    try {
      value = call();
    } catch (err) {
      onError(err);
      onSuccess(null);
      return;
    }
    this.handleResolverResult(ctx, value, onSuccess, onError);
  },
  handleResolverResult(ctx, value, onSuccess, onError) {
    if (this.isPromise(value)) {
      resolvePromise(ctx, value, onSuccess, onError);
    } else {
      onSuccess(value);
    }
  },
  handleListItemResult(ctx, item, onSuccess, onError) {
    if (this.isPromise(item)) {
      resolvePromise(ctx, item, onSuccess, onError);
    } else {
      onSuccess(item);
    }
  },
  finalizeResult(ctx) {
    if (ctx.promiseCounter > 0) {
      return new Promise((resolve) => {
        ctx.resolve = resolve;
      });
    }
    return void 0;
  },
  safeMap(ctx, iterable, cb, ...idx) {
    let index = 0;
    const result = [];
    for (const a of iterable) {
      cb(ctx, a, index, result, ...idx);
      ++index;
    }
    return result;
  }
};
export {
  jitRuntime
};
//# sourceMappingURL=runtime.mjs.map