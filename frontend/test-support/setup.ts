import { configure } from '@testing-library/react';

// findBy* and waitFor wait for what must eventually show. Testing Library's default of 1 s is a
// time limit in disguise: on a loaded CI machine a screen that loads two pages can take longer. The
// bound is generous; a passing test is as fast as before.
configure({ asyncUtilTimeout: 10_000 });
