// The Strata runtime.
