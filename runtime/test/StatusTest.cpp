// StatusTest.cpp: code names and the choice of which task's failure to blame.
#include "Status.h"

#include <gtest/gtest.h>

using namespace graphrt;

TEST(Status, CodeNames) {
  EXPECT_STREQ(statusCodeName(GRAPHRT_STATUS_DEADLINE_EXCEEDED),
               "DEADLINE_EXCEEDED");
  EXPECT_STREQ(statusCodeName(GRAPHRT_STATUS_UNAUTHENTICATED),
               "UNAUTHENTICATED");
  EXPECT_EQ(Status(GRAPHRT_STATUS_INTERNAL, "boom").toString(),
            "INTERNAL: boom");
}

TEST(Status, SymptomsRankBelowOwnErrors) {
  EXPECT_FALSE(isSymptomOfPeer(GRAPHRT_STATUS_INTERNAL));
  EXPECT_FALSE(isSymptomOfPeer(GRAPHRT_STATUS_INVALID_ARGUMENT));
  EXPECT_TRUE(isSymptomOfPeer(GRAPHRT_STATUS_UNAVAILABLE));
  EXPECT_TRUE(isSymptomOfPeer(GRAPHRT_STATUS_DEADLINE_EXCEEDED));
  EXPECT_TRUE(isSymptomOfPeer(GRAPHRT_STATUS_CANCELLED));
  EXPECT_LT(failureBlameRank(GRAPHRT_STATUS_DEADLINE_EXCEEDED),
            failureBlameRank(GRAPHRT_STATUS_CANCELLED));
}

// The collectives test's case: rank 1 times out waiting for a stuck rank 2
// and gives up; rank 0 is then cancelled by rank 1 giving up. Under load the
// coordinator may look at rank 0's call first, or see it end first.
TEST(Status, BlameTheTimeoutNotTheCancel) {
  std::vector<TaskFailure> f = {{GRAPHRT_STATUS_CANCELLED, 1.0},
                                {GRAPHRT_STATUS_DEADLINE_EXCEEDED, 2.0}};
  EXPECT_EQ(chooseFailureToBlame(f), 1u);
  std::vector<TaskFailure> g = {{GRAPHRT_STATUS_UNAVAILABLE, 5.0},
                                {GRAPHRT_STATUS_CANCELLED, 1.0}};
  EXPECT_EQ(chooseFailureToBlame(g), 0u);
}

TEST(Status, OwnErrorWinsOverEarlierSymptoms) {
  std::vector<TaskFailure> f = {{GRAPHRT_STATUS_DEADLINE_EXCEEDED, 1.0},
                                {GRAPHRT_STATUS_CANCELLED, 0.5},
                                {GRAPHRT_STATUS_INTERNAL, 3.0}};
  EXPECT_EQ(chooseFailureToBlame(f), 2u);
}

TEST(Status, EqualRanksBlameTheEarliestThenTheFirst) {
  std::vector<TaskFailure> f = {{GRAPHRT_STATUS_DEADLINE_EXCEEDED, 2.0},
                                {GRAPHRT_STATUS_UNAVAILABLE, 1.0},
                                {GRAPHRT_STATUS_DEADLINE_EXCEEDED, 1.0}};
  EXPECT_EQ(chooseFailureToBlame(f), 1u);
  std::vector<TaskFailure> one = {{GRAPHRT_STATUS_CANCELLED, 7.0}};
  EXPECT_EQ(chooseFailureToBlame(one), 0u);
}
