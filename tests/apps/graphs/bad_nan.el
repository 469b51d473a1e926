0 nan
