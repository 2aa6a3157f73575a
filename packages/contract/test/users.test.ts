import { describe, expect, it } from 'vitest';
import { AccountStatus, DueDiligenceStatus, RegistrationStatus, UserRole, catalystIdUpdate, registerBody, userInfo } from '../src/users';

describe('enumerations of spec §4 and §6', () => {
  it('numbers the account status 0 inactive, 1 email_verified, 2 active, 3 banned (A-047)', () => {
    expect(AccountStatus).toEqual({ inactive: 0, email_verified: 1, active: 2, banned: 3 });
  });

  it('numbers the on-chain registration status and the due-diligence status as the spec does (C-030, C-034)', () => {
    expect(RegistrationStatus).toEqual({ initialized: 0, not_found: 1, volatile: 2, persistent: 3 });
    expect(DueDiligenceStatus).toEqual({ unknown: 0, initialized: 1, pending: 2, green: 3, red: 4 });
  });

  it('makes admin role 100', () => {
    expect(UserRole.admin).toBe(100);
  });
});

describe('catalyst-ids/me body', () => {
  it.each(['/profile', '/profile?tab=2', '/admin/users/cardano%2Fabc'])('accepts the in-app redirect %j', (redirect) => {
    expect(catalystIdUpdate.safeParse({ email: 'a@example.test', redirect }).success).toBe(true);
  });

  it.each(['//evil.example', 'https://evil.example/', 'profile', '/with space'])(
    'refuses the redirect %j, which would leave the app',
    (redirect) => {
      expect(catalystIdUpdate.safeParse({ email: 'a@example.test', redirect }).success).toBe(false);
    },
  );
});

describe('user info (A-112)', () => {
  it('requires every field of spec §3', () => {
    const keys = Object.keys(userInfo.shape.extra.shape).sort();
    expect(keys).toEqual(
      [
        // Issue 47: a banned account's ban, absent when not banned.
        'ban',
        'due_diligence',
        'force_reset',
        'historic_stats',
        // Issue 31: the interface language the person chose (null until they choose one).
        'language',
        'registered_at',
        'role',
        'stats',
        'subscriptions',
        'unique_objectives_as_author',
      ].sort(),
    );
    expect(Object.keys(userInfo.shape.catalyst_id.shape)).toEqual(expect.arrayContaining(['status', 'rbac_reg_status']));
  });
});

describe('password confirmation (A-066)', () => {
  it("reports a mismatch next to the other fields' messages, not only once they are valid", () => {
    const result = registerBody.safeParse({
      new_user: { catalyst_id: 'nope', email: 'a@', password: 'Longenough1', password_confirmation: 'Longenough2', extra: {} },
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toContain('new_user.password_confirmation');
    expect(paths).toContain('new_user.catalyst_id');
  });

  it('does not fail on a body that is not an object', () => {
    expect(registerBody.safeParse({ new_user: 'text' }).success).toBe(false);
    expect(registerBody.safeParse({}).success).toBe(false);
  });
});
