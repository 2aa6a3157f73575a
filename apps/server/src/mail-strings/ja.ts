import type { MailStrings } from './types';

/** Japanese (issue 31): the web app's vocabulary, polite です/ます sentences. */
export const ja: MailStrings = {
  locale: 'ja',
  date: '{{year}}年{{month}}月{{day}}日（{{weekday}}）{{hour}}:{{minute}} UTC',
  hello: 'こんにちは。',
  listSeparator: '、',
  account: {
    activation: {
      subject: 'Community Reviewのアカウントを有効化してください',
      intro: 'ご登録ありがとうございます。レビューを始めるには、アカウントを有効化してください。',
      action: 'アカウントを有効化',
      after: 'このリンクの有効期間は48時間です。登録した覚えがない場合は、このメールを無視してください。',
    },
    email_verification: {
      subject: 'メールアドレスを確認してください',
      intro: 'このメールアドレスがご本人のものであることを確認してください。',
      action: 'メールアドレスを確認',
      after: 'このリンクの有効期間は48時間です。心当たりがない場合は、このメールを無視してください。',
    },
    password_reset: {
      subject: 'Community Reviewのパスワードのリセット',
      intro: 'アカウントのパスワードのリセットがリクエストされました。',
      action: '新しいパスワードを設定',
      after: 'このリンクの有効期間は1時間です。心当たりがない場合は、このメールを無視してください。パスワードは変更されません。',
    },
  },
  notifications: {
    theRound: 'このラウンド',
    footerText:
      'このメールは、{{because}}ため送信しています。{{label}}に関するメールを停止するには、{{unsubscribe_url}} を開いてください。プロフィールで通知を設定することもできます：{{profile_url}}',
    footerHtml: 'このメールは、{{because}}ため送信しています。',
    stopLink: '{{label}}に関するメールを停止',
    chooseLink: '通知を設定',
    kindLabels: {
      review_allocation: '提案の割り当て',
      review_reminder: 'レビュー期限のリマインダー',
      moderation_allocation: 'モデレーションの割り当て',
      moderation_reminder: 'モデレーション期限のリマインダー',
      review_outcomes: 'レビュー結果',
      lv2_invitation: 'LV2への招待',
    },
    reasons: {
      not_own_opinion: '本人の意見ではない',
      profanity: '不適切な表現',
      similarity: '類似',
      rationale_does_not_correspond: '根拠が評価と一致しない',
      false_statement: '虚偽の記述',
      other: 'その他',
    },
    review_allocation: {
      subject: { one: '{{event}}でレビューする提案が{{count}}件あります', other: '{{event}}でレビューする提案が{{count}}件あります' },
      body: {
        one: '{{event}}の提案が割り当てられました。{{event}}でレビューする提案は{{count}}件です。{{closes}}',
        other: '{{event}}の提案が割り当てられました。{{event}}でレビューする提案は{{count}}件です。{{closes}}',
      },
      closes: 'レビュー期間は{{date}}に終了します。',
      action: '提案を開く',
      because: '{{event}}のコミュニティレビュアーである',
    },
    moderation_allocation: {
      subject: {
        one: '{{event}}でモデレーションするレビューが{{count}}件あります',
        other: '{{event}}でモデレーションするレビューが{{count}}件あります',
      },
      body: {
        one: '{{event}}のモデレーションの割り当てが完了しました。{{event}}でモデレーションするレビューは{{count}}件です。{{closes}}',
        other: '{{event}}のモデレーションの割り当てが完了しました。{{event}}でモデレーションするレビューは{{count}}件です。{{closes}}',
      },
      closes: 'モデレーション期間は{{date}}に終了します。',
      action: '割り当てられたレビューを開く',
      because: '{{event}}のモデレーターである',
    },
    review_reminder: {
      subject: 'リマインダー：{{event}}で{{total}}件中{{done}}件の提案をレビュー済みです',
      closesAt: '{{event}}のレビュー期間は{{date}}に終了します。',
      closesSoon: '{{event}}のレビュー期間はまもなく終了します。',
      left: {
        one: '{{total}}件中{{done}}件の提案をレビュー済みです。期間の終了までに、残り{{left}}件の提案をレビューしてください。',
        other: '{{total}}件中{{done}}件の提案をレビュー済みです。期間の終了までに、残り{{left}}件の提案をレビューしてください。',
      },
      action: '提案を開く',
      because: '{{event}}でレビューが済んでいない提案がある',
    },
    moderation_reminder: {
      subject: 'リマインダー：{{event}}で{{total}}件中{{done}}件のレビューをモデレーション済みです',
      closesAt: '{{event}}のモデレーション期間は{{date}}に終了します。',
      closesSoon: '{{event}}のモデレーション期間はまもなく終了します。',
      left: {
        one: '{{total}}件中{{done}}件のレビューをモデレーション済みです。期間の終了までに、残り{{left}}件のレビューをモデレーションしてください。',
        other:
          '{{total}}件中{{done}}件のレビューをモデレーション済みです。期間の終了までに、残り{{left}}件のレビューをモデレーションしてください。',
      },
      action: '割り当てられたレビューを開く',
      because: '{{event}}でモデレーションが済んでいないレビューがある',
    },
    review_outcomes: {
      subject: '{{event}}のレビュー結果が公開されました',
      intro: '{{event}}のレビュー結果が公開されました。あなたのレビュー：',
      submitted: { one: '提出：{{count}}件', other: '提出：{{count}}件' },
      valid: { one: '有効：{{count}}件', other: '有効：{{count}}件' },
      excluded: { one: '除外：{{count}}件', other: '除外：{{count}}件' },
      byModeration: {
        one: 'モデレーションによる除外：{{count}}件。担当モデレーターの過半数が除外と判断しました{{reasons}}',
        other: 'モデレーションによる除外：{{count}}件。担当モデレーターの過半数が除外と判断しました{{reasons}}',
      },
      reasons: '（モデレーターの理由：{{list}}）',
      reasonItem: '{{reason}}：{{count}}件',
      byThreshold: {
        one: '承認しきい値による除外：{{count}}件。モデレーションされたレビューのうち有効と判断されたものが少なすぎたため、このラウンドのあなたのレビューはすべて除外されます',
        other:
          '承認しきい値による除外：{{count}}件。モデレーションされたレビューのうち有効と判断されたものが少なすぎたため、このラウンドのあなたのレビューはすべて除外されます',
      },
      action: 'プロフィールで履歴を見る',
      because: '{{event}}で提案をレビューした',
    },
    lv2_invitation: {
      subject: '{{event}}のモデレーションに招待されました',
      invited: '管理者から、{{event}}のコミュニティモデレーター（LV2）に招待されました。',
      answer:
        'プロフィールで招待に回答してください。招待の横にある「参加登録」を押してから公開連絡先と報酬受取アドレスを入力するか、辞退してください。',
      action: '招待に回答する',
      because: '管理者から{{event}}のモデレーションに招待された',
    },
  },
};
