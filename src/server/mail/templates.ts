/**
 * The mails the spec names (§2 sign-up verification, reset password, invitation, §4 approvals and
 * rejections with a reason), in every supported language. A template describes its body once as
 * blocks; `renderMail` turns the blocks into the text part and the HTML-escaped HTML part, so the two
 * never drift apart.
 */
import type { SupportedLanguage } from '../../shared/domain/language';

export interface MailTemplateData {
  /** POST /auth/code/: the code typed into the sign-up form. */
  verificationCode: { code: string; expiresInMinutes: number };
  /** POST /auth/reset-password/: a link to choose a new password. */
  passwordReset: { name: string; resetUrl: string; expiresInMinutes: number };
  /** Admin bulk invitation: the invitee joins with the temporary password. */
  invitation: { tenantName: string; acceptUrl: string; temporaryPassword: string };
  /** A registration or group-change request was approved (or auto-approved: the welcome). */
  memberRequestApproved: { name: string; tenantName: string; requestType: MemberRequestType; signInUrl: string };
  /** A registration or group-change request was rejected; the reason is required (spec §5). */
  memberRequestRejected: { name: string; tenantName: string; requestType: MemberRequestType; reason: string };
  /** An admin rejected a chatbot's publish request with feedback for the author. */
  chatbotPublishRejected: { name: string; chatbotName: string; reason: string };
  /** A member's contact-modal inquiry, to the tenant's support address; `phone` is '' when not given. */
  inquiryReceived: { tenantName: string; memberName: string; replyEmail: string; phone: string; inquiry: string };
  /** A membership renewal charge was declined; `nextAttemptDate` is when it is tried again (YYYY-MM-DD). */
  membershipPaymentFailed: { name: string; planName: string; amount: string; nextAttemptDate: string; plansUrl: string };
  /** The last renewal retry failed (or a cancelled membership ran out): the membership has ended. */
  membershipEnded: { name: string; planName: string; plansUrl: string };
}

export type MemberRequestType = 'registration' | 'group_update';
export type MailTemplateName = keyof MailTemplateData;
export const MAIL_TEMPLATE_NAMES = [
  'verificationCode',
  'passwordReset',
  'invitation',
  'memberRequestApproved',
  'memberRequestRejected',
  'chatbotPublishRejected',
  'inquiryReceived',
  'membershipPaymentFailed',
  'membershipEnded',
] as const satisfies readonly MailTemplateName[];

/** Body pieces; every text is plain text, escaped when it becomes HTML. */
export type MailBlock =
  | { kind: 'paragraph'; text: string }
  /** A value to copy (code, temporary password), shown large. */
  | { kind: 'code'; text: string }
  /** Words someone else wrote (a rejection reason), set apart from ours. */
  | { kind: 'quote'; text: string }
  | { kind: 'link'; label: string; url: string };

interface MailTemplate<D> {
  subject(data: D): string;
  body(data: D): MailBlock[];
}

type TemplateBook = { [N in MailTemplateName]: Record<SupportedLanguage, MailTemplate<MailTemplateData[N]>> };

const p = (text: string): MailBlock => ({ kind: 'paragraph', text });
const code = (text: string): MailBlock => ({ kind: 'code', text });
const quote = (text: string): MailBlock => ({ kind: 'quote', text });
const link = (label: string, url: string): MailBlock => ({ kind: 'link', label, url });

const requestNames: Record<SupportedLanguage, Record<MemberRequestType, string>> = {
  ko: { registration: '가입 요청', group_update: '그룹 변경 요청' },
  en: { registration: 'registration request', group_update: 'group change request' },
  zh: { registration: '注册申请', group_update: '群组变更申请' },
  ja: { registration: '登録申請', group_update: 'グループ変更申請' },
  es: { registration: 'solicitud de registro', group_update: 'solicitud de cambio de grupo' },
};

export const MAIL_TEMPLATES: TemplateBook = {
  verificationCode: {
    ko: {
      subject: () => '이메일 인증 코드',
      body: (d) => [
        p('회원가입을 계속하려면 아래 인증 코드를 입력하세요.'),
        code(d.code),
        p(`이 코드는 ${d.expiresInMinutes}분 동안 유효합니다. 요청하지 않았다면 이 메일을 무시하세요.`),
      ],
    },
    en: {
      subject: () => 'Your email verification code',
      body: (d) => [
        p('Enter this verification code to continue signing up.'),
        code(d.code),
        p(`The code is valid for ${d.expiresInMinutes} minutes. If you did not ask for it, ignore this email.`),
      ],
    },
    zh: {
      subject: () => '邮箱验证码',
      body: (d) => [p('请输入以下验证码以继续注册。'), code(d.code), p(`验证码在 ${d.expiresInMinutes} 分钟内有效。如果这不是您本人的操作，请忽略此邮件。`)],
    },
    ja: {
      subject: () => 'メール認証コード',
      body: (d) => [
        p('会員登録を続けるには、次の認証コードを入力してください。'),
        code(d.code),
        p(`このコードの有効期限は${d.expiresInMinutes}分です。心当たりがない場合は、このメールを無視してください。`),
      ],
    },
    es: {
      subject: () => 'Tu código de verificación de correo',
      body: (d) => [
        p('Introduce este código de verificación para continuar con el registro.'),
        code(d.code),
        p(`El código es válido durante ${d.expiresInMinutes} minutos. Si no lo has solicitado, ignora este correo.`),
      ],
    },
  },
  passwordReset: {
    ko: {
      subject: () => '비밀번호 재설정',
      body: (d) => [
        p(`${d.name}님, 비밀번호 재설정 요청을 받았습니다.`),
        link('새 비밀번호 설정', d.resetUrl),
        p(`이 링크는 ${d.expiresInMinutes}분 동안 유효합니다. 요청하지 않았다면 이 메일을 무시하세요. 비밀번호는 바뀌지 않습니다.`),
      ],
    },
    en: {
      subject: () => 'Reset your password',
      body: (d) => [
        p(`Hello ${d.name}, we received a request to reset your password.`),
        link('Choose a new password', d.resetUrl),
        p(`The link is valid for ${d.expiresInMinutes} minutes. If you did not ask for it, ignore this email; your password stays the same.`),
      ],
    },
    zh: {
      subject: () => '重置密码',
      body: (d) => [
        p(`${d.name}，您好！我们收到了重置您密码的请求。`),
        link('设置新密码', d.resetUrl),
        p(`该链接在 ${d.expiresInMinutes} 分钟内有效。如果这不是您本人的操作，请忽略此邮件，您的密码不会改变。`),
      ],
    },
    ja: {
      subject: () => 'パスワードの再設定',
      body: (d) => [
        p(`${d.name}様、パスワード再設定のリクエストを受け付けました。`),
        link('新しいパスワードを設定する', d.resetUrl),
        p(`このリンクの有効期限は${d.expiresInMinutes}分です。心当たりがない場合は、このメールを無視してください。パスワードは変更されません。`),
      ],
    },
    es: {
      subject: () => 'Restablece tu contraseña',
      body: (d) => [
        p(`Hola, ${d.name}: hemos recibido una solicitud para restablecer tu contraseña.`),
        link('Elegir una contraseña nueva', d.resetUrl),
        p(`El enlace es válido durante ${d.expiresInMinutes} minutos. Si no lo has solicitado, ignora este correo; tu contraseña no cambiará.`),
      ],
    },
  },
  invitation: {
    ko: {
      subject: (d) => `${d.tenantName}에 초대되었습니다`,
      body: (d) => [
        p(`${d.tenantName}에 초대되었습니다. 아래 링크에서 임시 비밀번호를 입력해 가입하세요.`),
        code(d.temporaryPassword),
        link('초대 수락', d.acceptUrl),
      ],
    },
    en: {
      subject: (d) => `You are invited to ${d.tenantName}`,
      body: (d) => [
        p(`You have been invited to ${d.tenantName}. Open the link below and enter this temporary password to join.`),
        code(d.temporaryPassword),
        link('Accept the invitation', d.acceptUrl),
      ],
    },
    zh: {
      subject: (d) => `您已受邀加入 ${d.tenantName}`,
      body: (d) => [p(`您已受邀加入 ${d.tenantName}。请打开下方链接并输入以下临时密码完成加入。`), code(d.temporaryPassword), link('接受邀请', d.acceptUrl)],
    },
    ja: {
      subject: (d) => `${d.tenantName}への招待`,
      body: (d) => [
        p(`${d.tenantName}に招待されました。下のリンクを開き、次の仮パスワードを入力して参加してください。`),
        code(d.temporaryPassword),
        link('招待を承諾する', d.acceptUrl),
      ],
    },
    es: {
      subject: (d) => `Te han invitado a ${d.tenantName}`,
      body: (d) => [
        p(`Te han invitado a ${d.tenantName}. Abre el enlace de abajo e introduce esta contraseña temporal para unirte.`),
        code(d.temporaryPassword),
        link('Aceptar la invitación', d.acceptUrl),
      ],
    },
  },
  memberRequestApproved: {
    ko: {
      subject: (d) => `${d.tenantName} ${requestNames.ko[d.requestType]}이 승인되었습니다`,
      body: (d) => [p(`${d.name}님, ${d.tenantName}의 ${requestNames.ko[d.requestType]}이 승인되었습니다.`), link('로그인', d.signInUrl)],
    },
    en: {
      subject: (d) => `Your ${requestNames.en[d.requestType]} at ${d.tenantName} was approved`,
      body: (d) => [p(`Hello ${d.name}, your ${requestNames.en[d.requestType]} at ${d.tenantName} was approved.`), link('Sign in', d.signInUrl)],
    },
    zh: {
      subject: (d) => `您在 ${d.tenantName} 的${requestNames.zh[d.requestType]}已通过`,
      body: (d) => [p(`${d.name}，您好！您在 ${d.tenantName} 的${requestNames.zh[d.requestType]}已通过审核。`), link('登录', d.signInUrl)],
    },
    ja: {
      subject: (d) => `${d.tenantName}の${requestNames.ja[d.requestType]}が承認されました`,
      body: (d) => [p(`${d.name}様、${d.tenantName}の${requestNames.ja[d.requestType]}が承認されました。`), link('ログイン', d.signInUrl)],
    },
    es: {
      subject: (d) => `Tu ${requestNames.es[d.requestType]} en ${d.tenantName} ha sido aprobada`,
      body: (d) => [p(`Hola, ${d.name}: tu ${requestNames.es[d.requestType]} en ${d.tenantName} ha sido aprobada.`), link('Iniciar sesión', d.signInUrl)],
    },
  },
  memberRequestRejected: {
    ko: {
      subject: (d) => `${d.tenantName} ${requestNames.ko[d.requestType]}이 거절되었습니다`,
      body: (d) => [p(`${d.name}님, ${d.tenantName}의 ${requestNames.ko[d.requestType]}이 거절되었습니다. 관리자가 남긴 사유:`), quote(d.reason)],
    },
    en: {
      subject: (d) => `Your ${requestNames.en[d.requestType]} at ${d.tenantName} was rejected`,
      body: (d) => [
        p(`Hello ${d.name}, your ${requestNames.en[d.requestType]} at ${d.tenantName} was rejected. The administrator gave this reason:`),
        quote(d.reason),
      ],
    },
    zh: {
      subject: (d) => `您在 ${d.tenantName} 的${requestNames.zh[d.requestType]}未通过`,
      body: (d) => [p(`${d.name}，您好！您在 ${d.tenantName} 的${requestNames.zh[d.requestType]}未通过审核。管理员给出的原因：`), quote(d.reason)],
    },
    ja: {
      subject: (d) => `${d.tenantName}の${requestNames.ja[d.requestType]}は承認されませんでした`,
      body: (d) => [p(`${d.name}様、${d.tenantName}の${requestNames.ja[d.requestType]}は承認されませんでした。管理者からの理由:`), quote(d.reason)],
    },
    es: {
      subject: (d) => `Tu ${requestNames.es[d.requestType]} en ${d.tenantName} ha sido rechazada`,
      body: (d) => [
        p(`Hola, ${d.name}: tu ${requestNames.es[d.requestType]} en ${d.tenantName} ha sido rechazada. Motivo indicado por el administrador:`),
        quote(d.reason),
      ],
    },
  },
  chatbotPublishRejected: {
    ko: {
      subject: (d) => `챗봇 "${d.chatbotName}" 공개 요청이 거절되었습니다`,
      body: (d) => [p(`${d.name}님, 챗봇 "${d.chatbotName}"의 공개 요청이 거절되었습니다. 관리자 피드백:`), quote(d.reason)],
    },
    en: {
      subject: (d) => `Publishing "${d.chatbotName}" was rejected`,
      body: (d) => [
        p(`Hello ${d.name}, the request to publish your chatbot "${d.chatbotName}" was rejected. Feedback from the administrator:`),
        quote(d.reason),
      ],
    },
    zh: {
      subject: (d) => `聊天机器人"${d.chatbotName}"的公开申请未通过`,
      body: (d) => [p(`${d.name}，您好！您的聊天机器人"${d.chatbotName}"的公开申请未通过。管理员反馈：`), quote(d.reason)],
    },
    ja: {
      subject: (d) => `チャットボット「${d.chatbotName}」の公開申請は承認されませんでした`,
      body: (d) => [p(`${d.name}様、チャットボット「${d.chatbotName}」の公開申請は承認されませんでした。管理者からのフィードバック:`), quote(d.reason)],
    },
    es: {
      subject: (d) => `La publicación de «${d.chatbotName}» ha sido rechazada`,
      body: (d) => [
        p(`Hola, ${d.name}: la solicitud para publicar tu chatbot «${d.chatbotName}» ha sido rechazada. Comentarios del administrador:`),
        quote(d.reason),
      ],
    },
  },
  inquiryReceived: {
    ko: {
      subject: (d) => `[${d.tenantName}] ${d.memberName}님의 문의`,
      body: (d) => [
        p(`${d.tenantName}의 ${d.memberName}님이 문의를 보냈습니다. 답장 이메일: ${d.replyEmail}${d.phone ? `, 전화: ${d.phone}` : ''}`),
        quote(d.inquiry),
      ],
    },
    en: {
      subject: (d) => `[${d.tenantName}] Inquiry from ${d.memberName}`,
      body: (d) => [p(`${d.memberName} (${d.tenantName}) sent an inquiry. Reply to: ${d.replyEmail}${d.phone ? `, phone: ${d.phone}` : ''}`), quote(d.inquiry)],
    },
    zh: {
      subject: (d) => `[${d.tenantName}] 来自 ${d.memberName} 的咨询`,
      body: (d) => [p(`${d.tenantName} 的 ${d.memberName} 发来了咨询。回复邮箱：${d.replyEmail}${d.phone ? `，电话：${d.phone}` : ''}`), quote(d.inquiry)],
    },
    ja: {
      subject: (d) => `[${d.tenantName}] ${d.memberName}様からのお問い合わせ`,
      body: (d) => [
        p(`${d.tenantName}の${d.memberName}様からお問い合わせがありました。返信先: ${d.replyEmail}${d.phone ? `、電話: ${d.phone}` : ''}`),
        quote(d.inquiry),
      ],
    },
    es: {
      subject: (d) => `[${d.tenantName}] Consulta de ${d.memberName}`,
      body: (d) => [
        p(`${d.memberName} (${d.tenantName}) ha enviado una consulta. Responder a: ${d.replyEmail}${d.phone ? `, teléfono: ${d.phone}` : ''}`),
        quote(d.inquiry),
      ],
    },
  },
  membershipPaymentFailed: {
    ko: {
      subject: (d) => `${d.planName} 플랜 결제에 실패했습니다`,
      body: (d) => [
        p(`${d.name}님, ${d.planName} 플랜의 정기 결제(${d.amount})가 카드사에서 거절되었습니다. ${d.nextAttemptDate}에 다시 시도합니다.`),
        p('카드 정보를 확인하거나 다른 카드를 등록해 주세요. 재시도가 모두 실패하면 멤버십이 종료됩니다.'),
        link('플랜 및 결제 관리', d.plansUrl),
      ],
    },
    en: {
      subject: (d) => `Payment for your ${d.planName} plan failed`,
      body: (d) => [
        p(`Hello ${d.name}, the renewal payment of ${d.amount} for your ${d.planName} plan was declined. We will try again on ${d.nextAttemptDate}.`),
        p('Please check your card or register another one. If every retry fails, the membership ends.'),
        link('Manage plans and payments', d.plansUrl),
      ],
    },
    zh: {
      subject: (d) => `${d.planName} 套餐付款失败`,
      body: (d) => [
        p(`${d.name}，您好！您的 ${d.planName} 套餐续费（${d.amount}）被发卡机构拒绝。我们将于 ${d.nextAttemptDate} 再次尝试扣款。`),
        p('请检查您的银行卡或登记另一张卡。所有重试均失败后，会员资格将终止。'),
        link('管理套餐与付款', d.plansUrl),
      ],
    },
    ja: {
      subject: (d) => `${d.planName}プランのお支払いに失敗しました`,
      body: (d) => [
        p(`${d.name}様、${d.planName}プランの更新料金（${d.amount}）がカード会社に拒否されました。${d.nextAttemptDate}に再度お支払いを試みます。`),
        p('カード情報をご確認いただくか、別のカードをご登録ください。すべての再試行が失敗するとメンバーシップは終了します。'),
        link('プランとお支払いの管理', d.plansUrl),
      ],
    },
    es: {
      subject: (d) => `El pago de tu plan ${d.planName} ha fallado`,
      body: (d) => [
        p(
          `Hola, ${d.name}: el pago de renovación de ${d.amount} de tu plan ${d.planName} ha sido rechazado. Lo intentaremos de nuevo el ${d.nextAttemptDate}.`,
        ),
        p('Revisa tu tarjeta o registra otra. Si todos los reintentos fallan, la membresía terminará.'),
        link('Gestionar planes y pagos', d.plansUrl),
      ],
    },
  },
  membershipEnded: {
    ko: {
      subject: (d) => `${d.planName} 멤버십이 종료되었습니다`,
      body: (d) => [p(`${d.name}님, ${d.planName} 플랜 멤버십이 종료되었습니다. 언제든지 다시 구독할 수 있습니다.`), link('플랜 보기', d.plansUrl)],
    },
    en: {
      subject: (d) => `Your ${d.planName} membership has ended`,
      body: (d) => [p(`Hello ${d.name}, your ${d.planName} membership has ended. You can subscribe again at any time.`), link('See plans', d.plansUrl)],
    },
    zh: {
      subject: (d) => `您的 ${d.planName} 会员资格已终止`,
      body: (d) => [p(`${d.name}，您好！您的 ${d.planName} 套餐会员资格已终止。您可以随时重新订阅。`), link('查看套餐', d.plansUrl)],
    },
    ja: {
      subject: (d) => `${d.planName}メンバーシップが終了しました`,
      body: (d) => [p(`${d.name}様、${d.planName}プランのメンバーシップは終了しました。いつでも再度ご登録いただけます。`), link('プランを見る', d.plansUrl)],
    },
    es: {
      subject: (d) => `Tu membresía ${d.planName} ha terminado`,
      body: (d) => [
        p(`Hola, ${d.name}: tu membresía del plan ${d.planName} ha terminado. Puedes suscribirte de nuevo cuando quieras.`),
        link('Ver planes', d.plansUrl),
      ],
    },
  },
};
