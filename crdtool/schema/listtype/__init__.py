"""Set and map list uniqueness: apiextensions-apiserver's schema/listtype."""
