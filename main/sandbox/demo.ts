/** What a fresh sandbox holds: one demo account and the demo templates of every account. */

/** The account a sandbox gets when no accounts are given (also `sandbox.demo`). Not a secret. */
export const DEMO_ACCOUNT = Object.freeze({ apiId: 'sandbox-demo', apiKey: 'sandbox-demo-key' });

/** Free debug units of a new registration (spec section 1). */
export const FREE_DEBUG_UNITS = 10;

/** Template review takes about 2 hours (spec section 3). */
export const DEFAULT_REVIEW_DELAY_MS = 2 * 60 * 60 * 1000;

export interface DemoTemplate {
  name: string;
  content: string;
  /** False: registered but still under review (approved after the review delay). */
  approved: boolean;
  /** A value of the right kind for each 【变量】, in order (a name where the name goes, an order number where it goes...). */
  example: readonly string[];
}

export const DEMO_TEMPLATES: readonly DemoTemplate[] = Object.freeze([
  { name: '发货通知（沙箱示例）', content: '您好，【变量】，您的订单【变量】已发货，请注意查收。', approved: true, example: ['张三', 'A1001'] },
  { name: '告警通知（沙箱示例）', content: '【变量】告警：【变量】，请立即处理。', approved: true, example: ['数据库', 'CPU 使用率 95%'] },
  { name: '验证码（沙箱示例）', content: '您的验证码是【变量】，5分钟内有效。', approved: true, example: ['123456'] },
  {
    name: '预约提醒（沙箱示例）',
    content: '尊敬的【变量】，您预约的【变量】服务将于【变量】开始。',
    approved: false,
    example: ['李女士', '体检', '明天上午9点'],
  },
]);
