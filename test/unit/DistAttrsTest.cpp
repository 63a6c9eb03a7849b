//===- DistAttrsTest.cpp - unit tests for dist attributes -----------------===//

#include "dist/DistDialect.h"

#include <gtest/gtest.h>
