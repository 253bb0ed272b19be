// How long a test may take: a CI machine is shared and has run the suite at a third of a workstation's speed (two
// servers, two browsers, two cores), so every test's own limit is given three times as long there. Only a slow test
// gains from it: a wrong answer fails as soon as it is seen.
export function allow(ms: number): number {
  return process.env.CI ? ms * 3 : ms;
}
