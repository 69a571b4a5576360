#include "runtime/manager/runnable.hpp"
